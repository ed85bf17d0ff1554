-- Trigram indexes serve the lists' `q` (a part of a name or comment, case-insensitively).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- What a silence's `q` searches: its comment and each matcher's label and value, one per line. Immutable, so
-- an index can hold it; a function, because an index expression cannot hold the subquery over the matchers.
CREATE FUNCTION "silence_search_text"("comment" text, "matchers" jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN "comment" || coalesce((SELECT string_agg(E'\n' || (m ->> 'label') || E'\n' || (m ->> 'value'), '')
    FROM jsonb_array_elements("matchers") AS m), '');--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"verified_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_checkpoints" ADD CONSTRAINT "audit_checkpoints_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_name_search_idx" ON "api_keys" USING gin ("name" gin_trgm_ops) WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "api_keys_prefix_search_idx" ON "api_keys" USING btree ("organization_id","prefix" text_pattern_ops) WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "silences_project_ends_idx" ON "silences" USING btree ("organization_id","project_id","ends_at");--> statement-breakpoint
CREATE INDEX "silences_search_idx" ON "silences" USING gin (silence_search_text("comment", "matchers") gin_trgm_ops);