CREATE TABLE "custom_connector_versions" (
	"connector_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_connector_versions_connector_id_version_pk" PRIMARY KEY("connector_id","version")
);
--> statement-breakpoint
CREATE TABLE "custom_connectors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "custom_connector_versions" ADD CONSTRAINT "custom_connector_versions_connector_id_custom_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."custom_connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_connectors" ADD CONSTRAINT "custom_connectors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_connectors_account_slug_idx" ON "custom_connectors" USING btree ("account_id","slug");
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON custom_connectors FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('account_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON custom_connectors FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
