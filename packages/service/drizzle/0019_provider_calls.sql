CREATE TABLE "provider_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"credential_id" uuid,
	"connector" text NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"status" integer,
	"duration_ms" integer NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"execution_id" uuid,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "provider_calls" ADD CONSTRAINT "provider_calls_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_calls" ADD CONSTRAINT "provider_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_calls_account_at_idx" ON "provider_calls" USING btree ("account_id","at","id");--> statement-breakpoint
CREATE INDEX "provider_calls_user_at_idx" ON "provider_calls" USING btree ("user_id","at","id");--> statement-breakpoint
CREATE INDEX "provider_calls_credential_at_idx" ON "provider_calls" USING btree ("credential_id","at","id");