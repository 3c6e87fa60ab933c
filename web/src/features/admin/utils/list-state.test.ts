import { describe, expect, it } from 'vitest'
import { ariaSort, listReducer, nextSort, pageCount } from './list-state'

type Filter = { q: string; sort: 'name' | 'email' | 'createdAt'; order: 'asc' | 'desc' }
const start = { q: '', sort: 'createdAt' as const, order: 'desc' as const, page: 3, pageSize: 25 }

describe('listReducer', () => {
  it('goes back to page 1 when a filter changes', () => {
    expect(listReducer<Filter>(start, { type: 'filter', patch: { q: 'ada' } })).toEqual({ ...start, q: 'ada', page: 1 })
  })

  it('keeps the same state object when the filter did not change', () => {
    expect(listReducer<Filter>(start, { type: 'filter', patch: { q: '' } })).toBe(start)
  })

  it('moves to a page, never below 1', () => {
    expect(listReducer<Filter>(start, { type: 'page', page: 4 }).page).toBe(4)
    expect(listReducer<Filter>(start, { type: 'page', page: 0 }).page).toBe(1)
  })

  it('keeps the first visible row in view when the page size changes', () => {
    // Page 3 of 25 starts at row 51: with 50 a page that is page 2, with 100 page 1.
    expect(listReducer<Filter>(start, { type: 'pageSize', pageSize: 50 })).toMatchObject({ page: 2, pageSize: 50 })
    expect(listReducer<Filter>(start, { type: 'pageSize', pageSize: 100 })).toMatchObject({ page: 1, pageSize: 100 })
    expect(listReducer<Filter>({ ...start, page: 2, pageSize: 100 }, { type: 'pageSize', pageSize: 25 })).toMatchObject({ page: 5 })
  })
})

describe('sorting', () => {
  it('sorts a new column ascending and flips the sorted one', () => {
    expect(nextSort({ sort: 'createdAt', order: 'desc' }, 'name')).toEqual({ sort: 'name', order: 'asc' })
    expect(nextSort({ sort: 'name', order: 'asc' }, 'name')).toEqual({ sort: 'name', order: 'desc' })
    expect(nextSort({ sort: 'name', order: 'desc' }, 'name')).toEqual({ sort: 'name', order: 'asc' })
  })

  it('sets aria-sort only on the sorted column', () => {
    expect(ariaSort({ sort: 'name', order: 'asc' }, 'name')).toBe('ascending')
    expect(ariaSort({ sort: 'name', order: 'desc' }, 'name')).toBe('descending')
    expect(ariaSort({ sort: 'name', order: 'asc' }, 'email')).toBe('none')
  })
})

describe('pageCount', () => {
  it('rounds up and is at least 1', () => {
    expect(pageCount(0, 25)).toBe(1)
    expect(pageCount(25, 25)).toBe(1)
    expect(pageCount(26, 25)).toBe(2)
    expect(pageCount(50_000, 100)).toBe(500)
  })
})
