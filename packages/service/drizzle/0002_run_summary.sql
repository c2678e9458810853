ALTER TABLE "execution_steps" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "summary" text;--> statement-breakpoint
CREATE INDEX "executions_rerun_of_idx" ON "executions" USING btree ("rerun_of") WHERE "executions"."rerun_of" is not null;