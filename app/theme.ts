export const THEMES = ['light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

export const THEME_COOKIE = 'theme'
export const THEME_STORAGE_KEY = 'theme'

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark'
}

/**
 * Runs before first paint when the server did not know the theme (no cookie, no client hint):
 * applies the stored choice, else the system's, and keeps the cookie in step with local storage.
 */
export const themeBootScript = `(()=>{try{var d=document.documentElement;if(d.classList.contains('dark')||d.classList.contains('light'))return;var s=localStorage.getItem('${THEME_STORAGE_KEY}');var t=s==='dark'||s==='light'?s:(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light');if(t==='dark')d.classList.add('dark');if(s)document.cookie='${THEME_COOKIE}='+s+';path=/;max-age=31536000;samesite=lax'}catch(e){}})()`
