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
    "layerCount" INTEGER NOT NULL,
    "layers" BLOB NOT NULL,
    "pathCount" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hitCount" INTEGER NOT NULL DEFAULT 0,
    "lastHitAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Analysis" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "notes" TEXT,
    "fen" TEXT,
    "queries" TEXT NOT NULL,
    "resultKeys" TEXT NOT NULL,
    "editTokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CachedResult_lastHitAt_idx" ON "CachedResult"("lastHitAt");

-- CreateIndex
CREATE INDEX "Analysis_createdAt_id_idx" ON "Analysis"("createdAt" DESC, "id" DESC);
