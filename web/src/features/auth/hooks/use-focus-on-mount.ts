import { useEffect, useRef } from 'react'

/**
 * A ref whose element takes the focus when it first appears: when a form
 * step replaces another, keyboard and screen-reader users land on the new
 * step instead of at the top of the page.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null)
  useEffect(() => {
    ref.current?.focus()
  }, [])
  return ref
}
