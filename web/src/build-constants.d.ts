/** The year the web app was built in (vite.config.ts). */
declare const __BUILD_YEAR__: number

/** The pinned @mediapipe/face_mesh version, whose files the binary serves under /sandbox/face-mesh/<version>/ (vite.config.ts). */
declare const __FACE_MESH_VERSION__: string
