import type { ComponentProps, ReactNode } from 'react'

/**
 * Every icon the app draws, inline so it shows before any script or stylesheet loads and takes
 * the text colour (`currentColor`). Decorative: hidden from assistive technology, so the control
 * around an icon carries the name (an aria-label, or visible text).
 */
const icons = {
  close: { viewBox: '0 0 24 24', strokeWidth: 2, body: <path d="M6 6l12 12M18 6L6 18" /> },
  menu: { viewBox: '0 0 24 24', strokeWidth: 2, body: <path d="M4 6h16M4 12h16M4 18h16" /> },
  bell: {
    viewBox: '0 0 24 24',
    strokeWidth: 2,
    body: (
      <>
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </>
    ),
  },
  sun: {
    viewBox: '0 0 24 24',
    strokeWidth: 2,
    body: (
      <>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41" />
      </>
    ),
  },
  moon: { viewBox: '0 0 24 24', strokeWidth: 2, body: <path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z" /> },
  /** A ring with a moving arc; give it `animate-spin`. */
  spinner: {
    viewBox: '0 0 24 24',
    strokeWidth: 3,
    body: (
      <>
        <circle cx="12" cy="12" r="9" className="opacity-25" />
        <path d="M21 12a9 9 0 0 0-9-9" strokeLinecap="round" />
      </>
    ),
  },
  check: {
    viewBox: '0 0 20 20',
    strokeWidth: 2,
    body: <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />,
  },
  'arrow-right': {
    viewBox: '0 0 20 20',
    strokeWidth: 2,
    body: <path d="M4 10h12m-5-5l5 5-5 5" strokeLinecap="round" strokeLinejoin="round" />,
  },
  mail: {
    viewBox: '0 0 20 20',
    strokeWidth: 1.75,
    body: (
      <>
        <rect x="2.5" y="4.5" width="15" height="11" rx="2" />
        <path d="M3 5.5l7 5.5 7-5.5" strokeLinecap="round" strokeLinejoin="round" />
      </>
    ),
  },
} satisfies Record<string, { viewBox: string; strokeWidth: number; body: ReactNode }>

export type IconName = keyof typeof icons

/** An outline icon by name; size it with a class (`size-4`). */
export function Icon({ name, ...props }: ComponentProps<'svg'> & { name: IconName }) {
  const { viewBox, strokeWidth, body } = icons[name]
  return (
    <svg aria-hidden viewBox={viewBox} fill="none" stroke="currentColor" strokeWidth={strokeWidth} {...props}>
      {body}
    </svg>
  )
}
