export declare const SHARED_SECRETS: readonly ('NEXTAUTH_SECRET' | 'ENCRYPTION_KEY')[];
export declare function generatedSecretFile(name: 'NEXTAUTH_SECRET' | 'ENCRYPTION_KEY', dataDir: string): string;
export declare function unsharedSecrets(
  onPostgres: boolean,
  values: Readonly<Record<string, string | undefined>>,
  names?: readonly ('NEXTAUTH_SECRET' | 'ENCRYPTION_KEY')[],
): string[];
export declare function unsharedSecretsMessage(names: readonly string[]): string;
