/** The Snag mark and wordmark. Decorative: links around it carry the accessible name. */
export function Logo({ size = 28, withText = true }: { size?: number; withText?: boolean }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10 }} aria-hidden="true">
      <svg width={size} height={size} viewBox="0 0 32 32" role="presentation">
        <defs>
          <linearGradient id="snag-logo-g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6b6ad6" />
            <stop offset="1" stopColor="#3a3990" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill="url(#snag-logo-g)" />
        <path
          d="M9 9.5h14a2.5 2.5 0 0 1 2.5 2.5v7a2.5 2.5 0 0 1-2.5 2.5h-6.2L12 25v-3.5H9A2.5 2.5 0 0 1 6.5 19v-7A2.5 2.5 0 0 1 9 9.5Z"
          fill="#fff"
        />
        <circle cx="16" cy="18.2" r="1.3" fill="#4f4eae" />
        <rect x="14.9" y="11.8" width="2.2" height="4.8" rx="1.1" fill="#4f4eae" />
      </svg>
      {withText && (
        <span
          style={{
            fontWeight: 750,
            fontSize: size * 0.72,
            letterSpacing: '-0.02em',
            color: 'var(--mantine-color-text)',
          }}
        >
          Snag
        </span>
      )}
    </span>
  );
}
