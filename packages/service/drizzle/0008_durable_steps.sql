ALTER TABLE "execution_steps" ADD COLUMN "step_key" text;--> statement-breakpoint
ALTER TABLE "execution_steps" ADD COLUMN "iteration" integer;--> statement-breakpoint
ALTER TABLE "execution_steps" ADD COLUMN "parent_step_id" text;--> statement-breakpoint
ALTER TABLE "execution_steps" ADD COLUMN "branch" text;--> statement-breakpoint
ALTER TABLE "execution_steps" ADD COLUMN "output" jsonb;