-- The whole schema on PostgreSQL, as the SQLite migrations leave it: the result cache, the saved
-- analyses (with their version, for optimistic concurrency) and the running totals of both.
--
-- StoreTotals: one row (id 1) holding the running totals of both tables, kept by triggers in the
-- same transaction as every insert, update and delete, so no write ever scans a table to know
-- them. Under concurrent writers the row is a point of contention: each writing transaction
-- holds its lock until it commits (cache writes are batched, a few a second per replica).

-- CreateTable
CREATE TABLE "CachedResult" (
    "key" TEXT NOT NULL,
    "piece" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "ranks" INTEGER NOT NULL,
    "mask" TEXT NOT NULL,
    "sources" TEXT NOT NULL,
    "targets" TEXT NOT NULL,
    "distance" INTEGER,
    "pathCount" TEXT,
    "bytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hitCount" INTEGER NOT NULL DEFAULT 0,
    "lastHitAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "layers" BYTEA NOT NULL,

    CONSTRAINT "CachedResult_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Analysis" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "notes" TEXT,
    "fen" TEXT,
    "queries" TEXT NOT NULL,
    "resultKeys" TEXT NOT NULL,
    "editTokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Analysis_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoreTotals" (
    "id" INTEGER NOT NULL,
    "cacheRows" BIGINT NOT NULL DEFAULT 0,
    "cacheBytes" BIGINT NOT NULL DEFAULT 0,
    "analysisRows" BIGINT NOT NULL DEFAULT 0,
    "analysisBytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "StoreTotals_pkey" PRIMARY KEY ("id")
);
INSERT INTO "StoreTotals" ("id") VALUES (1);

-- CreateIndex
CREATE INDEX "CachedResult_lastHitAt_key_idx" ON "CachedResult"("lastHitAt", "key");

-- CreateIndex
CREATE INDEX "Analysis_createdAt_id_idx" ON "Analysis"("createdAt" DESC, "id" DESC);

-- CreateTrigger
CREATE FUNCTION "CachedResult_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "StoreTotals" SET "cacheRows" = "cacheRows" + 1, "cacheBytes" = "cacheBytes" + NEW."bytes" WHERE "id" = 1;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE "StoreTotals" SET "cacheBytes" = "cacheBytes" - OLD."bytes" + NEW."bytes" WHERE "id" = 1;
    ELSE
        UPDATE "StoreTotals" SET "cacheRows" = "cacheRows" - 1, "cacheBytes" = "cacheBytes" - OLD."bytes" WHERE "id" = 1;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER "CachedResult_totals_insert" AFTER INSERT ON "CachedResult"
    FOR EACH ROW EXECUTE FUNCTION "CachedResult_totals"();
CREATE TRIGGER "CachedResult_totals_update" AFTER UPDATE OF "bytes" ON "CachedResult"
    FOR EACH ROW WHEN (OLD."bytes" IS DISTINCT FROM NEW."bytes") EXECUTE FUNCTION "CachedResult_totals"();
CREATE TRIGGER "CachedResult_totals_delete" AFTER DELETE ON "CachedResult"
    FOR EACH ROW EXECUTE FUNCTION "CachedResult_totals"();

CREATE FUNCTION "Analysis_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "StoreTotals" SET "analysisRows" = "analysisRows" + 1, "analysisBytes" = "analysisBytes" + NEW."bytes" WHERE "id" = 1;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE "StoreTotals" SET "analysisBytes" = "analysisBytes" - OLD."bytes" + NEW."bytes" WHERE "id" = 1;
    ELSE
        UPDATE "StoreTotals" SET "analysisRows" = "analysisRows" - 1, "analysisBytes" = "analysisBytes" - OLD."bytes" WHERE "id" = 1;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER "Analysis_totals_insert" AFTER INSERT ON "Analysis"
    FOR EACH ROW EXECUTE FUNCTION "Analysis_totals"();
CREATE TRIGGER "Analysis_totals_update" AFTER UPDATE OF "bytes" ON "Analysis"
    FOR EACH ROW WHEN (OLD."bytes" IS DISTINCT FROM NEW."bytes") EXECUTE FUNCTION "Analysis_totals"();
CREATE TRIGGER "Analysis_totals_delete" AFTER DELETE ON "Analysis"
    FOR EACH ROW EXECUTE FUNCTION "Analysis_totals"();
