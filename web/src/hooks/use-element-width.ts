import { useEffect, useRef, useState } from 'react'

/**
 * The rendered width of an element, followed as it changes, so an SVG can
 * be drawn at its real size: text stays legible at 375 px and at 1280 px
 * instead of being scaled with the picture. fallback is used until it is
 * measured (and where ResizeObserver does not exist, as in jsdom).
 */
export function useElementWidth<E extends HTMLElement>(fallback: number) {
  const ref = useRef<E>(null)
  const [width, setWidth] = useState(fallback)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width] as const
}
