import type { paths } from '@/api/schema'

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** The JSON body of a successful response, straight from the generated OpenAPI types. */
export type ResponseBody<P extends keyof paths, M extends Method & keyof paths[P], S extends number = 200> =
  paths[P][M] extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never

/** The JSON request body of an operation, straight from the generated OpenAPI types. */
export type RequestBody<P extends keyof paths, M extends Method & keyof paths[P]> =
  paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never

/** The query parameters of an operation, straight from the generated OpenAPI types. */
export type QueryParams<P extends keyof paths, M extends Method & keyof paths[P]> =
  paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never
