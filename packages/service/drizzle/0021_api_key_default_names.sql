-- Keys created without a name are named after the day they were made, as new ones are.
UPDATE "api_keys" SET "name" = 'Key created ' || to_char("created_at" AT TIME ZONE 'UTC', 'FMDD Mon YYYY') WHERE "name" IS NULL;
