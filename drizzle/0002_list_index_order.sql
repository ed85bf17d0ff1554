DROP INDEX "api_keys_org_list_idx";--> statement-breakpoint
DROP INDEX "api_keys_owner_list_idx";--> statement-breakpoint
CREATE INDEX "api_keys_org_list_idx" ON "api_keys" USING btree ("organization_id","created_at","id") WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "api_keys_owner_list_idx" ON "api_keys" USING btree ("organization_id","owner_type","owner_id","created_at","id") WHERE "api_keys"."revoked_at" is null;