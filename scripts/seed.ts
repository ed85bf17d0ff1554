// `npm run seed`: the demo data of PRODUCT.md on whichever database the environment names. Idempotent.
import './settings-first';
import { closeDb, getDb } from '../lib/db/client';
import { seedDemoData } from '../server/demo/seed';

process.env.SEED_DEMO = '0'; // seed explicitly below, and report what happened
const db = await getDb();
const created = await seedDemoData(db);
console.error(created ? 'Demo data created.' : 'Demo data already present; nothing added.');
await closeDb();
