-- Analysis: a "version", 1 at creation and one more at every update, so that an update can say
-- which version it changes (optimistic concurrency: a concurrent update is a conflict, not a
-- silent overwrite). Existing rows start at 1.

-- AlterTable
ALTER TABLE "Analysis" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
