import { describe, expect, it } from 'vitest'
import { json, mockApi, problem } from '@/test/api-mock'
import { api, ApiError, errorMessage, NETWORK_ERROR_MESSAGE, problemMessage, unwrap } from './api-client'

describe('problemMessage', () => {
  it('prefers detail, then the first error, then the title', () => {
    expect(problemMessage(401, { title: 'Unauthorized', detail: 'Invalid email or password.' })).toBe('Invalid email or password.')
    expect(problemMessage(422, { title: 'Unprocessable Entity', errors: [{ message: 'expected required property email to be present' }] })).toBe(
      'expected required property email to be present',
    )
    expect(problemMessage(500, { title: 'Internal Server Error' })).toBe('Internal Server Error')
    expect(problemMessage(502, {})).toBe('Request failed (502).')
    expect(problemMessage(0, {})).toBe(NETWORK_ERROR_MESSAGE)
  })
})

describe('unwrap', () => {
  it('returns data on success and sends JSON', async () => {
    const { calls, fn } = mockApi({ 'POST /api/auth/login': () => json(200, { user: { id: '1' } }) })
    const data = await unwrap(api.POST('/api/auth/login', { body: { email: 'a@b.c', password: 'pw' } }))
    expect(data.user.id).toBe('1')
    expect(calls[0]?.body).toEqual({ email: 'a@b.c', password: 'pw' })
    const req = fn.mock.calls[0]?.[0] as Request
    expect(req.headers.get('Content-Type')).toBe('application/json')
  })

  it('throws ApiError with the problem detail and Retry-After', async () => {
    mockApi({ 'POST /api/auth/login': () => json(429, { title: 'Too Many Requests', status: 429, detail: 'Too many attempts.' }, { 'Retry-After': '30' }) })
    const err = await unwrap(api.POST('/api/auth/login', { body: { email: 'a@b.c', password: 'pw' } })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(429)
    expect((err as ApiError).retryAfter).toBe(30)
    expect(errorMessage(err)).toBe('Too many attempts.')
  })

  it('turns a network failure into a readable error', async () => {
    mockApi({
      'GET /api/auth/me': () => {
        throw new TypeError('Failed to fetch')
      },
    })
    const err = await unwrap(api.GET('/api/auth/me')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(errorMessage(err)).toBe(NETWORK_ERROR_MESSAGE)
  })

  it('reads problem+json bodies', async () => {
    mockApi({ 'GET /api/dashboard': () => problem(401, 'Not signed in.') })
    const err = await unwrap(api.GET('/api/dashboard')).catch((e: unknown) => e)
    expect((err as ApiError).status).toBe(401)
    expect((err as ApiError).message).toBe('Not signed in.')
  })
})
