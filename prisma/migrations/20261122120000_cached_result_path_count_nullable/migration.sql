-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CachedResult" (
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
    "pathCount" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hitCount" INTEGER NOT NULL DEFAULT 0,
    "lastHitAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_CachedResult" ("createdAt", "distance", "files", "hitCount", "key", "lastHitAt", "layerCount", "layers", "mask", "pathCount", "piece", "ranks", "sources", "targets") SELECT "createdAt", "distance", "files", "hitCount", "key", "lastHitAt", "layerCount", "layers", "mask", "pathCount", "piece", "ranks", "sources", "targets" FROM "CachedResult";
DROP TABLE "CachedResult";
ALTER TABLE "new_CachedResult" RENAME TO "CachedResult";
CREATE INDEX "CachedResult_lastHitAt_idx" ON "CachedResult"("lastHitAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
