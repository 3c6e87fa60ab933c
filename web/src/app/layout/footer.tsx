import { useSyncExternalStore } from 'react'
import { Link } from 'react-router'
import { EmailLink } from '@/components/email-link'
import type { ProfessionSlug } from '@/lib/professions'

const linkClass = 'text-sm text-slate-300 hover:text-white hover:underline underline-offset-4'

const noUpdates = () => () => {}

/**
 * This year, as the browser's clock has it. The prerendered HTML has the
 * year it was built in, which the first render (hydration) repeats; React
 * draws this year over it at once when they differ.
 */
function useYear() {
  return useSyncExternalStore(noUpdates, () => new Date().getFullYear(), () => __BUILD_YEAR__)
}

/** Shown only on the exact profession home. */
export function Footer({ profession }: { profession: ProfessionSlug }) {
  const base = `/${profession}`
  const year = useYear()
  return (
    <footer className="bg-slate-900 text-slate-100">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-3">
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product" className="font-semibold">
            Product
          </h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <a href="#features" className={linkClass}>
                Features
              </a>
            </li>
            <li>
              <Link to={`${base}/pricing`} className={linkClass}>
                Pricing
              </Link>
            </li>
            <li>
              <Link to={`${base}/resources`} className={linkClass}>
                Resources
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="font-semibold">
            Company
          </h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <Link to={`${base}/about`} className={linkClass}>
                About
              </Link>
            </li>
            <li>
              <EmailLink to="contact" className={linkClass}>
                Contact
              </EmailLink>
            </li>
            <li>
              <Link to={`${base}/privacy`} className={linkClass}>
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="font-semibold">
            Support
          </h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <EmailLink to="support" className={linkClass}>
                Email Support
              </EmailLink>
            </li>
            <li>
              <Link to={`${base}/terms`} className={linkClass}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-700">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-300">© {year} Whitecoat. All rights reserved.</p>
      </div>
    </footer>
  )
}
