-- Queues and what their subscriptions deliver: messages stored once per queue, one row per subscription for each
-- message's fate, the deliveries (each a lease while in flight), per-minute outcomes, and each subscription's backlog.
CREATE TABLE "queue_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"body" jsonb NOT NULL,
	"attributes" jsonb NOT NULL,
	"published_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"retention_seconds" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queues_slug_unique" UNIQUE("slug"),
	CONSTRAINT "queues_retention_ck" CHECK ("queues"."retention_seconds" between 60 and 1209600)
);
--> statement-breakpoint
CREATE TABLE "subscription_backlogs" (
	"subscription_id" uuid PRIMARY KEY NOT NULL,
	"pending" bigint DEFAULT 0 NOT NULL,
	"dead" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"lease_until" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"messages" integer NOT NULL,
	"outcome" text,
	"status" integer,
	"duration_ms" integer,
	"error_class" text,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "subscription_messages" (
	"subscription_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"available_at" timestamp (3) with time zone NOT NULL,
	"delivery_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp (3) with time zone NOT NULL,
	"last_error" jsonb,
	"dead_lettered_at" timestamp (3) with time zone,
	CONSTRAINT "subscription_messages_pkey" PRIMARY KEY("subscription_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_minutes" (
	"subscription_id" uuid NOT NULL,
	"minute" timestamp (3) with time zone NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"dead_lettered" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subscription_minutes_pkey" PRIMARY KEY("subscription_id","minute")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "health_turn_xid" bigint;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retry_max_attempts" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retry_min_backoff_seconds" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retry_max_backoff_seconds" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "secret_box" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "previous_secret_box" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "previous_secret_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "claimed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "queue_messages" ADD CONSTRAINT "queue_messages_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_messages" ADD CONSTRAINT "subscription_messages_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_messages" ADD CONSTRAINT "subscription_messages_message_id_queue_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."queue_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_minutes" ADD CONSTRAINT "subscription_minutes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_messages_queue_idx" ON "queue_messages" USING btree ("queue_id","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_name_idx" ON "queues" USING btree ("organization_id","project_id","name");--> statement-breakpoint
CREATE INDEX "queues_project_idx" ON "queues" USING btree ("organization_id","project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "subscription_deliveries_in_flight_idx" ON "subscription_deliveries" USING btree ("subscription_id","lease_until") WHERE "subscription_deliveries"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "subscription_deliveries_list_idx" ON "subscription_deliveries" USING btree ("subscription_id","started_at","id");--> statement-breakpoint
CREATE INDEX "subscription_deliveries_started_idx" ON "subscription_deliveries" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "subscription_messages_ready_idx" ON "subscription_messages" USING btree ("subscription_id","available_at") WHERE "subscription_messages"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "subscription_messages_age_idx" ON "subscription_messages" USING btree ("subscription_id","published_at") WHERE "subscription_messages"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "subscription_messages_dead_idx" ON "subscription_messages" USING btree ("subscription_id","dead_lettered_at","message_id") WHERE "subscription_messages"."state" = 'dead';--> statement-breakpoint
CREATE INDEX "subscription_messages_delivery_idx" ON "subscription_messages" USING btree ("delivery_id") WHERE "subscription_messages"."delivery_id" is not null;--> statement-breakpoint
CREATE INDEX "subscription_messages_message_idx" ON "subscription_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "subscription_minutes_minute_idx" ON "subscription_minutes" USING btree ("minute");--> statement-breakpoint
-- Subscriptions made before queues existed name a queue id of their own: each such id becomes a queue of its project.
INSERT INTO "queues" ("id", "organization_id", "project_id", "name", "slug", "retention_seconds")
  SELECT DISTINCT ON ("queue_id") "queue_id", "organization_id", "project_id", 'queue-' || left(replace("queue_id"::text, '-', ''), 12),
    'que_' || left(replace("queue_id"::text, '-', ''), 12), 345600
  FROM "subscriptions" ORDER BY "queue_id", "created_at";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_queue_idx" ON "subscriptions" USING btree ("queue_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_retry_ck" CHECK ("subscriptions"."retry_max_attempts" between 1 and 100 and "subscriptions"."retry_min_backoff_seconds" between 0 and 600 and "subscriptions"."retry_max_backoff_seconds" between 1 and 3600);--> statement-breakpoint
-- Kept by triggers, so every writer keeps it: publish, a delivery's record, expiry, redrive, discard, deletion.
CREATE FUNCTION "subscription_backlogs_keep"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "subscription_backlogs" ("subscription_id", "pending", "dead")
      SELECT "subscription_id", count(*) FILTER (WHERE "state" = 'pending'), count(*) FILTER (WHERE "state" = 'dead')
      FROM "new_rows" GROUP BY 1 ORDER BY 1
      ON CONFLICT ("subscription_id") DO UPDATE SET "pending" = "subscription_backlogs"."pending" + excluded."pending",
        "dead" = "subscription_backlogs"."dead" + excluded."dead";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "subscription_backlogs" ("subscription_id", "pending", "dead")
      SELECT "subscription_id", -count(*) FILTER (WHERE "state" = 'pending'), -count(*) FILTER (WHERE "state" = 'dead')
      FROM "old_rows" GROUP BY 1 ORDER BY 1
      ON CONFLICT ("subscription_id") DO UPDATE SET "pending" = "subscription_backlogs"."pending" + excluded."pending",
        "dead" = "subscription_backlogs"."dead" + excluded."dead";
  ELSE
    -- Only a change of state moves the counts: a lease taken or given back writes nothing here.
    INSERT INTO "subscription_backlogs" ("subscription_id", "pending", "dead")
      SELECT n."subscription_id",
        count(*) FILTER (WHERE n."state" = 'pending') - count(*) FILTER (WHERE o."state" = 'pending'),
        count(*) FILTER (WHERE n."state" = 'dead') - count(*) FILTER (WHERE o."state" = 'dead')
      FROM "new_rows" n JOIN "old_rows" o USING ("subscription_id", "message_id")
      WHERE n."state" <> o."state"
      GROUP BY 1 ORDER BY 1
      ON CONFLICT ("subscription_id") DO UPDATE SET "pending" = "subscription_backlogs"."pending" + excluded."pending",
        "dead" = "subscription_backlogs"."dead" + excluded."dead";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "subscription_backlogs_insert" AFTER INSERT ON "subscription_messages"
  REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscription_backlogs_keep"();--> statement-breakpoint
CREATE TRIGGER "subscription_backlogs_update" AFTER UPDATE ON "subscription_messages"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscription_backlogs_keep"();--> statement-breakpoint
CREATE TRIGGER "subscription_backlogs_delete" AFTER DELETE ON "subscription_messages"
  REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "subscription_backlogs_keep"();
