ALTER TABLE "credentials" ADD COLUMN "status_changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "account_label" text;--> statement-breakpoint
UPDATE "credentials" SET "status" = 'needs_reconnect', "status_changed_at" = "updated_at" WHERE "status" = 'expired';--> statement-breakpoint
UPDATE "credentials" SET "status_changed_at" = "updated_at";
