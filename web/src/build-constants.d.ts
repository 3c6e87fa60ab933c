/** The year the web app was built in (vite.config.ts). */
declare const __BUILD_YEAR__: number
