ALTER TABLE "silences" DROP CONSTRAINT "silences_window_ck";--> statement-breakpoint
ALTER TABLE "silences" ADD CONSTRAINT "silences_window_ck" CHECK ("silences"."ends_at" >= "silences"."starts_at");