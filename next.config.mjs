/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and argon2 a native addon: both must be loaded by Node, not bundled; prom-client once per
  // process, so every module's metrics land on its one default registry.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', 'pg', 'proper-lockfile', 'prom-client'],
  poweredByHeader: false,
  outputFileTracingExcludes: { '*': ['./data/**'] },
  async headers() {
    // Page CSP (with a per-request nonce) is set in proxy.ts; these apply everywhere.
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
        ],
      },
    ];
  },
};

export default nextConfig;
