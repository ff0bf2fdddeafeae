-- Byte budgets for the result cache and the saved analyses.
--
-- CachedResult: the layers become the caller's compact encoding, opaque to the store, so every
-- row stored in the old dense encoding is dropped (a cache row is only a cache: it is solved
-- again when asked). The table is recreated without "layerCount", with "bytes" (the row's stored
-- size) before the "layers" BLOB, which comes last so that reading the small columns never reads
-- the BLOB's overflow pages. Least recently used order is ("lastHitAt", "key"), one index.
--
-- Analysis: a "bytes" column (UTF-8 bytes of title, notes, FEN, queries and result keys, plus a
-- fixed 256 bytes for the row's other columns and index entries), filled in for existing rows.
--
-- StoreTotals: one row (id 1) holding the running totals of both tables, kept by triggers in the
-- same transaction as every insert, update and delete, so no write ever scans a table to know them.

-- DropTable
DROP TABLE "CachedResult";

-- CreateTable
CREATE TABLE "CachedResult" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "piece" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "ranks" INTEGER NOT NULL,
    "mask" TEXT NOT NULL,
    "sources" TEXT NOT NULL,
    "targets" TEXT NOT NULL,
    "distance" INTEGER,
    "pathCount" TEXT,
    "bytes" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hitCount" INTEGER NOT NULL DEFAULT 0,
    "lastHitAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "layers" BLOB NOT NULL
);

-- CreateIndex
CREATE INDEX "CachedResult_lastHitAt_key_idx" ON "CachedResult"("lastHitAt", "key");

-- AlterTable
ALTER TABLE "Analysis" ADD COLUMN "bytes" INTEGER NOT NULL DEFAULT 0;
UPDATE "Analysis" SET "bytes" = 256
    + length(CAST("title" AS BLOB))
    + COALESCE(length(CAST("notes" AS BLOB)), 0)
    + COALESCE(length(CAST("fen" AS BLOB)), 0)
    + length(CAST("queries" AS BLOB))
    + length(CAST("resultKeys" AS BLOB));

-- CreateTable
CREATE TABLE "StoreTotals" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "cacheRows" BIGINT NOT NULL DEFAULT 0,
    "cacheBytes" BIGINT NOT NULL DEFAULT 0,
    "analysisRows" BIGINT NOT NULL DEFAULT 0,
    "analysisBytes" BIGINT NOT NULL DEFAULT 0
);
INSERT INTO "StoreTotals" ("id", "cacheRows", "cacheBytes", "analysisRows", "analysisBytes")
    SELECT 1, 0, 0, COUNT(*), COALESCE(SUM("bytes"), 0) FROM "Analysis";

-- CreateTrigger
CREATE TRIGGER "CachedResult_totals_insert" AFTER INSERT ON "CachedResult" BEGIN
    UPDATE "StoreTotals" SET "cacheRows" = "cacheRows" + 1, "cacheBytes" = "cacheBytes" + NEW."bytes" WHERE "id" = 1;
END;
CREATE TRIGGER "CachedResult_totals_update" AFTER UPDATE OF "bytes" ON "CachedResult" BEGIN
    UPDATE "StoreTotals" SET "cacheBytes" = "cacheBytes" - OLD."bytes" + NEW."bytes" WHERE "id" = 1;
END;
CREATE TRIGGER "CachedResult_totals_delete" AFTER DELETE ON "CachedResult" BEGIN
    UPDATE "StoreTotals" SET "cacheRows" = "cacheRows" - 1, "cacheBytes" = "cacheBytes" - OLD."bytes" WHERE "id" = 1;
END;
CREATE TRIGGER "Analysis_totals_insert" AFTER INSERT ON "Analysis" BEGIN
    UPDATE "StoreTotals" SET "analysisRows" = "analysisRows" + 1, "analysisBytes" = "analysisBytes" + NEW."bytes" WHERE "id" = 1;
END;
CREATE TRIGGER "Analysis_totals_update" AFTER UPDATE OF "bytes" ON "Analysis" BEGIN
    UPDATE "StoreTotals" SET "analysisBytes" = "analysisBytes" - OLD."bytes" + NEW."bytes" WHERE "id" = 1;
END;
CREATE TRIGGER "Analysis_totals_delete" AFTER DELETE ON "Analysis" BEGIN
    UPDATE "StoreTotals" SET "analysisRows" = "analysisRows" - 1, "analysisBytes" = "analysisBytes" - OLD."bytes" WHERE "id" = 1;
END;
