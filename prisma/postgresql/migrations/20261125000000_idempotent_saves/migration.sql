-- IdempotentSave: one row per save made with an idempotency key, written in the save's
-- transaction, so that a retry of that save (its answer was lost) answers the first save's result
-- instead of storing the analysis twice. The primary key makes two saves with one key at once
-- (two replicas, two connections) store one analysis: the second one's insert waits for the
-- first to commit, fails, and the save then reads the first one's row. The row holds the key's
-- SHA-256 (never the key), the SHA-256 of the save's input, the analysis id, and the edit token
-- sealed under a key derived from the idempotency key (never the token). Rows expire
-- IDEMPOTENCY_WINDOW_HOURS after "createdAt" and are purged a few at a time, oldest first, by
-- later saves.

-- CreateTable
CREATE TABLE "IdempotentSave" (
    "keyHash" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "analysisId" TEXT NOT NULL,
    "sealedToken" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotentSave_pkey" PRIMARY KEY ("keyHash")
);

-- CreateIndex
CREATE INDEX "IdempotentSave_createdAt_idx" ON "IdempotentSave"("createdAt");
