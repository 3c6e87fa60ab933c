import { useEffect, useRef } from 'react'
import { Outlet, ScrollRestoration, useLocation } from 'react-router'
import { getLastProfession, isHeaderHidden, isProfessionHome, professionFromPath } from '@/lib/professions'
import { Footer } from './footer'
import { Header } from './header'

export function RootLayout() {
  const { pathname } = useLocation()
  const profession = professionFromPath(pathname) ?? getLastProfession()
  const mainRef = useRef<HTMLElement>(null)
  const firstPath = useRef(pathname)

  // After a client-side navigation, move focus to the new page's content so
  // keyboard and screen-reader users start there (not on a stale link).
  useEffect(() => {
    if (pathname === firstPath.current) return
    firstPath.current = ''
    const active = document.activeElement
    if (active && active !== document.body && mainRef.current?.contains(active)) return
    mainRef.current?.focus({ preventScroll: true })
  }, [pathname])
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      {isHeaderHidden(pathname) ? null : <Header profession={profession} />}
      <main id="main" ref={mainRef} tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
      {isProfessionHome(pathname) ? <Footer profession={profession} /> : null}
      <ScrollRestoration />
    </div>
  )
}
