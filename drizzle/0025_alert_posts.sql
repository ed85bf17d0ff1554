-- When each project's Alertmanager API last received a post of alerts (issue 64: the Alerts page says it, the guided start counts a sender).
CREATE TABLE "alert_posts" (
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"last_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "alert_posts_pkey" PRIMARY KEY("organization_id","project_id")
);
--> statement-breakpoint
ALTER TABLE "alert_posts" ADD CONSTRAINT "alert_posts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_posts" ADD CONSTRAINT "alert_posts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;