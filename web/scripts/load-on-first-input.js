// Loads a prerendered page's app (its module scripts, which the prerender,
// scripts/prerender.mjs, moves here from the page's head) once the visitor
// first acts on the page: moves the mouse, touches the screen, turns the
// wheel, presses a key or moves the focus. Until then the page is its HTML,
// already painted: it reads, and its links go where they say. Loading the
// app as soon as the page had painted cost a phone 300–600 ms of blocked
// main thread while the visitor was only reading (issue 41, make bench-site);
// now that work waits for the visitor to act, and a desktop's mouse or a
// phone's first touch starts it well before their first press lands.
//
// A press on a button before the app has taken the page over does nothing
// in the HTML alone; it is held and made again once the app is ready
// (start.tsx marks <html data-app="ready">). Only the last one is kept: a
// double press on a menu toggle must not open and close it.
;(() => {
  const { entry, preload } = document.currentScript.dataset
  const html = document.documentElement
  const FIRST_INPUTS = ['pointerdown', 'pointermove', 'touchstart', 'wheel', 'keydown', 'focusin']
  const listening = { capture: true, passive: true }
  let held = null

  const ready = () => html.dataset.app === 'ready'
  const holdPress = (event) => {
    if (ready()) return
    const button = event.target instanceof Element ? event.target.closest('button, [role="button"]') : null
    if (!button) return
    event.preventDefault()
    event.stopImmediatePropagation()
    held = button
  }
  new MutationObserver((_, observer) => {
    if (!ready()) return
    observer.disconnect()
    window.removeEventListener('click', holdPress, true)
    const button = held
    held = null
    if (button?.isConnected) button.click()
  }).observe(html, { attributes: true, attributeFilter: ['data-app'] })
  window.addEventListener('click', holdPress, true)

  const add = (tag, attributes) => document.head.append(Object.assign(document.createElement(tag), attributes, { crossOrigin: 'anonymous' }))
  const load = () => {
    for (const type of FIRST_INPUTS) window.removeEventListener(type, load, listening)
    for (const href of preload.split(' ').filter(Boolean)) add('link', { rel: 'modulepreload', href })
    add('script', { type: 'module', src: entry })
  }
  for (const type of FIRST_INPUTS) window.addEventListener(type, load, listening)
})()
