-- The lowest schema (number of migrations known) a build must have to serve this database. Migrations expand
-- only, so the release before keeps working beside this one during a roll; a later migration that removes what
-- an older release still uses (a contract step) raises this floor in the same migration, and a build below it
-- refuses to start instead of writing to a schema its code does not match (lib/db/schema-floor.ts).
CREATE TABLE "drizzle"."schema_floor" (
	"id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
	"min_schema" integer NOT NULL,
	"raised_by" text
);--> statement-breakpoint
INSERT INTO "drizzle"."schema_floor" ("id", "min_schema", "raised_by") VALUES (1, 0, NULL);
