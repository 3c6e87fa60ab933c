import { Menu, Stethoscope, X } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router'
import { toast } from '@/lib/toast'
import { AuthPending } from '@/components/auth-pending'
import { Button } from '@/components/ui/button'
import { useMe } from '@/features/auth/api/get-me'
import { useClearSession, useLogout } from '@/features/auth/api/logout'
import { errorMessage } from '@/lib/api-client'
import type { ProfessionSlug } from '@/lib/professions'
import { cn } from '@/lib/utils'
import { ProfessionSwitcher } from './profession-switcher'

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn('rounded-md px-3 py-2 text-sm font-medium text-foreground hover:bg-muted', isActive && 'text-primary underline decoration-2 underline-offset-8')

export function Header({ profession }: { profession: ProfessionSlug }) {
  const me = useMe()
  const logout = useLogout()
  const clearSession = useClearSession()
  const navigate = useNavigate()
  const location = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const menuId = useId()
  const signedIn = !!me.data
  const home = `/${profession}`

  // Close the small-screen menu whenever the page changes.
  useEffect(() => setMenuOpen(false), [location.pathname])

  useEffect(() => {
    if (!menuOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [menuOpen])

  async function onLogout() {
    try {
      await logout.mutateAsync()
      toast.success('You are logged out.')
    } catch (err) {
      toast.error(errorMessage(err))
      return
    }
    // Leave any protected page first, then forget the user, so the guard
    // does not send us to /login on the way out.
    await navigate(home, { flushSync: true })
    clearSession()
    logout.reset()
  }

  const links = [
    { to: `/${profession}/pricing`, label: 'Pricing' },
    { to: `/${profession}/resources`, label: 'Resources' },
    { to: `/${profession}/about`, label: 'About' },
  ]

  // A signed-in student's own pages, one tap away wherever they are (the
  // dashboard lists only the newest saved sessions).
  const studentLinks = [
    { to: `/${profession}/dashboard`, label: 'Dashboard' },
    { to: `/${profession}/history`, label: 'History' },
    { to: `/${profession}/progress`, label: 'Progress' },
  ]

  // Until the visitor is known, the signed-out buttons show as plain links
  // (AuthPending), and nothing moves when their own links replace them.
  const authActions = (layout: 'row' | 'column') => (
    <AuthPending pending={me.isPending}>
      {signedIn ? (
        <>
          {studentLinks.map((l) => (
            <NavLink key={l.to} to={l.to} className={navLinkClass}>
              {l.label}
            </NavLink>
          ))}
          <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={logout.isPending} className={layout === 'column' ? 'justify-start' : undefined}>
            Logout
          </Button>
        </>
      ) : (
        <>
          <NavLink to="/login" className={navLinkClass}>
            Log in
          </NavLink>
          <Button asChild size="sm">
            <Link to="/signup">Get started</Link>
          </Button>
        </>
      )}
    </AuthPending>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:gap-4">
        <Link to={home} className="flex shrink-0 items-center gap-2 rounded-md font-bold text-primary" aria-label="Whitecoat home">
          <Stethoscope className="size-6" aria-hidden="true" />
          <span className="text-lg tracking-tight">Whitecoat</span>
        </Link>
        <ProfessionSwitcher current={profession} />
        <nav aria-label="Main" className="ml-auto hidden items-center gap-1 lg:flex">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={navLinkClass}>
              {l.label}
            </NavLink>
          ))}
          <span className="mx-2 h-6 w-px bg-border" aria-hidden="true" />
          {authActions('row')}
        </nav>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto lg:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
        </Button>
      </div>
      <nav id={menuId} aria-label="Main menu" hidden={!menuOpen} className="border-t border-border bg-background px-4 pb-4 pt-2 lg:hidden">
        <div className="flex flex-col gap-1">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={navLinkClass}>
              {l.label}
            </NavLink>
          ))}
          <hr className="my-2 border-border" />
          <div className="flex flex-col items-stretch gap-2">{authActions('column')}</div>
        </div>
      </nav>
    </header>
  )
}
