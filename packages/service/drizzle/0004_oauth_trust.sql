ALTER TABLE "accounts" ADD COLUMN "allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "start_hash" text;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "started_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "browser_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_states_start_idx" ON "oauth_states" USING btree ("start_hash");