// Loads a prerendered page's scripts once the page has painted: the
// prerender (scripts/prerender.mjs) moves them here from the page's head,
// so that on a slow network the HTML and the styles come first and the
// scripts, which only make the page interactive, do not hold them back.
;(() => {
  const { entry, preload } = document.currentScript.dataset
  const add = (tag, attributes) => document.head.append(Object.assign(document.createElement(tag), attributes, { crossOrigin: 'anonymous' }))
  const load = () => {
    for (const href of preload.split(' ').filter(Boolean)) add('link', { rel: 'modulepreload', href })
    add('script', { type: 'module', src: entry })
  }
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    // The browser reports the first contentful paint once it is on the screen.
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return
      observer.disconnect()
      load()
    }).observe({ type: 'paint', buffered: true })
  } else {
    // A frame's callback runs just before its paint; a timer set there, after it.
    requestAnimationFrame(() => setTimeout(load))
  }
})()
