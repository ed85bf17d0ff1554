-- Every organization has its audit chain head from its creation (seq 0 and the genesis hash, ''), so a
-- change that writes its event in its own statement can move the head with an UPDATE (lib/audit/record.ts).
INSERT INTO "audit_chain_heads" ("organization_id", "seq", "hash")
  SELECT "id", 0, '' FROM "organizations" ON CONFLICT ("organization_id") DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "audit_chain_head_for_organization"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "audit_chain_heads" ("organization_id", "seq", "hash") VALUES (NEW."id", 0, '')
    ON CONFLICT ("organization_id") DO NOTHING;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organizations_audit_chain_head" AFTER INSERT ON "organizations"
  FOR EACH ROW EXECUTE FUNCTION "audit_chain_head_for_organization"();
