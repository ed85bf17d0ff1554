import { resetSettings } from '../../lib/settings/settings';

// Unit tests set and delete environment variables between cases (a limit, a switch, a fresh DATA_DIR), as separate
// server starts would. The server reads its settings once; here any write to process.env makes the next read fresh.
process.env = new Proxy(process.env, {
  set(env, name, value) {
    resetSettings();
    return Reflect.set(env, name, value);
  },
  deleteProperty(env, name) {
    resetSettings();
    return Reflect.deleteProperty(env, name);
  },
});
