/**
 * The about page's picture: a white coat beside a speech bubble with a
 * rising score line, drawn here rather than a stock photo or an invented
 * founder's portrait.
 */
export function AboutIllustration() {
  return (
    <svg viewBox="0 0 320 200" role="img" aria-labelledby="about-illustration-title" className="h-auto w-full max-w-md">
      <title id="about-illustration-title">A white coat beside a speech bubble holding a rising line of scores</title>
      <rect x="0" y="0" width="320" height="200" rx="24" fill="#ccfbf1" />
      <g stroke="#134e4a" strokeWidth="3" strokeLinejoin="round" strokeLinecap="round">
        <path d="M70 52 L100 40 L130 52 L150 170 L50 170 Z" fill="#ffffff" />
        <path d="M100 40 L88 92 L100 170 M100 40 L112 92 L100 170" fill="none" />
        <path d="M70 52 L44 150 L58 154 L74 96" fill="#ffffff" />
        <path d="M130 52 L156 150 L142 154 L126 96" fill="#ffffff" />
        <rect x="112" y="108" width="18" height="14" rx="2" fill="#ffffff" />
        <path d="M84 60 C76 86 80 104 92 110" fill="none" stroke="#0f766e" />
        <circle cx="93" cy="112" r="4" fill="#0f766e" stroke="#0f766e" />
      </g>
      <g>
        <path d="M178 44 H288 A12 12 0 0 1 300 56 V122 A12 12 0 0 1 288 134 H214 L196 152 L198 134 H178 A12 12 0 0 1 166 122 V56 A12 12 0 0 1 178 44 Z" fill="#ffffff" stroke="#134e4a" strokeWidth="3" strokeLinejoin="round" />
        <polyline points="184,116 210,100 232,106 256,80 282,66" fill="none" stroke="#0f766e" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
        <circle cx="282" cy="66" r="6" fill="#0f766e" />
        <line x1="184" y1="62" x2="236" y2="62" stroke="#94a3b8" strokeWidth="4" strokeLinecap="round" />
      </g>
    </svg>
  )
}
