-- Least privilege for keys: each key's restrictions and each organization's key policy. Only added, all
-- nullable (null: unrestricted, no policy), so the previous release keeps running against this schema.
ALTER TABLE "api_keys" ADD COLUMN "permissions" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "project_ids" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "key_policy" jsonb;
