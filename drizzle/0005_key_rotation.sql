CREATE TABLE "api_key_usage" (
	"key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"requests" bigint NOT NULL,
	CONSTRAINT "api_key_usage_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rolled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "stops_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leaked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leak_url" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "leak_notice_dismissed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_usage_day_idx" ON "api_key_usage" USING btree ("day");--> statement-breakpoint
CREATE INDEX "api_keys_stops_idx" ON "api_keys" USING btree ("stops_at") WHERE "api_keys"."stops_at" is not null and "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "api_keys_leak_notice_idx" ON "api_keys" USING btree ("organization_id","leaked_at") WHERE "api_keys"."leaked_at" is not null and "api_keys"."leak_notice_dismissed_at" is null;