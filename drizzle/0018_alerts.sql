CREATE TABLE "alert_silences" (
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"silence_id" uuid NOT NULL,
	CONSTRAINT "alert_silences_pkey" PRIMARY KEY("organization_id","project_id","fingerprint","silence_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"labels" jsonb NOT NULL,
	"annotations" jsonb NOT NULL,
	"generator_url" text DEFAULT '' NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"ends_by_timeout" boolean NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"size_bytes" integer NOT NULL,
	"firing_notified_at" timestamp (3) with time zone,
	CONSTRAINT "alerts_pkey" PRIMARY KEY("organization_id","project_id","fingerprint"),
	CONSTRAINT "alerts_window_ck" CHECK ("alerts"."ends_at" >= "alerts"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "silences" ADD COLUMN "matched_alerts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_silences" ADD CONSTRAINT "alert_silences_alert_fk" FOREIGN KEY ("organization_id","project_id","fingerprint") REFERENCES "public"."alerts"("organization_id","project_id","fingerprint") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_silences" ADD CONSTRAINT "alert_silences_silence_fk" FOREIGN KEY ("silence_id") REFERENCES "public"."silences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_silences_silence_idx" ON "alert_silences" USING btree ("silence_id");--> statement-breakpoint
CREATE INDEX "alerts_project_ends_idx" ON "alerts" USING btree ("organization_id","project_id","ends_at");--> statement-breakpoint
CREATE INDEX "alerts_project_starts_idx" ON "alerts" USING btree ("organization_id","project_id","starts_at","fingerprint");--> statement-breakpoint
CREATE INDEX "alerts_labels_idx" ON "alerts" USING gin ("labels" jsonb_path_ops);