import { describe, expect, it } from 'vitest'
import {
  decideProfessionRoute,
  getLastProfession,
  isHeaderHidden,
  isProfessionHome,
  isSafeInternalPath,
  LAST_PROFESSION_KEY,
  loginDestination,
  normaliseSlug,
  PROFESSION_SLUGS,
  professionFromPath,
  professionPath,
  remembersProfession,
  setLastProfession,
  swapProfession,
} from './professions'

describe('normaliseSlug', () => {
  it.each([
    ['dental', 'dental'],
    ['DENTAL', 'dental'],
    ['Medical', 'medical'],
    ['pT', 'pt'],
    ['veterinary', 'veterinary'],
    [' ot ', 'ot'],
  ])('%s -> %s', (raw, want) => expect(normaliseSlug(raw)).toBe(want))

  it.each(['', 'nursing', 'dentals', 'admin', 'login', undefined, null])('rejects %s', (raw) => expect(normaliseSlug(raw)).toBeNull())

  it('knows all seven professions', () => {
    expect([...PROFESSION_SLUGS].sort()).toEqual(['dental', 'medical', 'ot', 'pa', 'pharmacy', 'pt', 'veterinary'])
  })
})

describe('professionFromPath', () => {
  it.each([
    ['/dental', 'dental'],
    ['/MEDICAL/pricing', 'medical'],
    ['/pa/resources/ethics', 'pa'],
    ['/', null],
    ['/login', null],
    ['/nursing/pricing', null],
  ])('%s -> %s', (path, want) => expect(professionFromPath(path)).toBe(want))
})

describe('swapProfession keeps the rest of the path', () => {
  it.each([
    ['/dental', 'medical', '/medical'],
    ['/dental/', 'medical', '/medical'],
    ['/dental/pricing', 'pt', '/pt/pricing'],
    ['/dental/resources/ethics', 'medical', '/medical/resources/ethics'],
    ['/Dental/admin/questions', 'veterinary', '/veterinary/admin/questions'],
    ['/medical/resources/', 'ot', '/ot/resources/'],
    ['/login', 'medical', '/medical'],
    ['/', 'pharmacy', '/pharmacy'],
  ] as const)('%s with %s -> %s', (path, slug, want) => expect(swapProfession(path, slug)).toBe(want))
})

describe('decideProfessionRoute', () => {
  it('renders a known lower-case slug', () => {
    expect(decideProfessionRoute('dental', '/dental/pricing')).toEqual({ kind: 'render', slug: 'dental' })
  })
  it('redirects another case to the lower-case path, keeping the rest', () => {
    expect(decideProfessionRoute('DENTAL', '/DENTAL')).toEqual({ kind: 'redirect', to: '/dental' })
    expect(decideProfessionRoute('Medical', '/Medical/resources/ethics')).toEqual({ kind: 'redirect', to: '/medical/resources/ethics' })
  })
  it('sends an unknown profession to /', () => {
    expect(decideProfessionRoute('nursing', '/nursing')).toEqual({ kind: 'redirect', to: '/' })
    expect(decideProfessionRoute('foo', '/foo/pricing')).toEqual({ kind: 'redirect', to: '/' })
    expect(decideProfessionRoute(undefined, '/')).toEqual({ kind: 'redirect', to: '/' })
  })
})

describe('layout visibility', () => {
  it.each([
    ['/dental/setup', true],
    ['/dental/session', true],
    ['/medical/summary', true],
    ['/medical/summary/', true],
    ['/dental', false],
    ['/dental/dashboard', false],
    ['/dental/setup/extra', false],
    ['/login', false],
  ])('header hidden on %s: %s', (path, hidden) => expect(isHeaderHidden(path)).toBe(hidden))

  it.each([
    ['/dental', true],
    ['/medical/', true],
    ['/dental/pricing', false],
    ['/', false],
    ['/login', false],
    ['/nursing', false],
  ])('footer on %s: %s', (path, shown) => expect(isProfessionHome(path)).toBe(shown))
})

describe('last profession', () => {
  it.each([
    ['/dental', true],
    ['/medical/pricing', true],
    ['/pt/resources/ethics', true],
    ['/pharmacy/setup', true],
    ['/ot/session', true],
    // The account's pages carry a profession in their path but show every
    // profession's practice: opening them is not using one.
    ['/dental/dashboard', false],
    ['/dental/history', false],
    ['/dental/progress', false],
    ['/medical/summary', false],
    ['/dental/admin', false],
    ['/dental/admin/questions', false],
    ['/dental/checkout/test', false],
  ])('%s remembers its profession: %s', (path, remembers) => expect(remembersProfession(path)).toBe(remembers))
  it('defaults to dental and remembers a choice in localStorage', () => {
    expect(getLastProfession()).toBe('dental')
    setLastProfession('pharmacy')
    expect(window.localStorage.getItem(LAST_PROFESSION_KEY)).toBe('pharmacy')
    expect(getLastProfession()).toBe('pharmacy')
  })
  it('ignores junk in storage', () => {
    window.localStorage.setItem(LAST_PROFESSION_KEY, 'nursing')
    expect(getLastProfession()).toBe('dental')
  })
  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
    }
    expect(getLastProfession(broken)).toBe('dental')
    expect(() => setLastProfession('pa', broken)).not.toThrow()
  })
  it('builds profession paths', () => {
    expect(professionPath('medical', 'admin')).toBe('/medical/admin')
    expect(professionPath('medical', '/admin/questions')).toBe('/medical/admin/questions')
    expect(professionPath('pt')).toBe('/pt')
  })
})

describe('loginDestination', () => {
  it('sends admins to /admin whatever they asked for', () => {
    expect(loginDestination('admin', '/dental/setup')).toBe('/admin')
  })
  it('sends users back to from, else the dashboard', () => {
    expect(loginDestination('user', '/medical/setup?x=1')).toBe('/medical/setup?x=1')
    expect(loginDestination('user', null)).toBe('/dashboard')
    expect(loginDestination('user', '/login')).toBe('/dashboard')
    expect(loginDestination('user', '/signup')).toBe('/dashboard')
  })
  it('never redirects off-site', () => {
    expect(loginDestination('user', '//evil.example/x')).toBe('/dashboard')
    expect(loginDestination('user', 'https://evil.example/')).toBe('/dashboard')
    expect(isSafeInternalPath('/\\evil.example')).toBe(false)
  })
})
