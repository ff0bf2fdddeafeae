-- Analysis: the game an analysis was saved with, as its PGN text was given (null for none). Its
-- UTF-8 bytes count in the analysis's stored size, like the other texts.

-- AlterTable
ALTER TABLE "Analysis" ADD COLUMN "pgn" TEXT;
