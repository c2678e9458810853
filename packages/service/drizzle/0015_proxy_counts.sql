CREATE TABLE "proxy_counts" (
	"account_id" uuid NOT NULL,
	"connector" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_counts_account_id_connector_pk" PRIMARY KEY("account_id","connector")
);
--> statement-breakpoint
ALTER TABLE "proxy_counts" ADD CONSTRAINT "proxy_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;