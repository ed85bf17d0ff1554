// The first import of every script that loads the app's modules (`npm run seed`, `db:backup`, `user:create`, `npm run bench`…): a
// bad setting stops the script as it stops the server, one line per refused variable and exit code 1, before any
// module reads the settings (and before the script touches a database).
import { refuseBadSettings } from '../server/check-settings';

refuseBadSettings();
