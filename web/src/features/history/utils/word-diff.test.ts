import { describe, expect, it } from 'vitest'
import { wordDiff } from './word-diff'

describe('wordDiff', () => {
  it('marks the words dropped and added, keeping the rest in order', () => {
    expect(wordDiff('I like teeth and I want a job', 'I want to help patients and I want a career')).toEqual([
      { kind: 'same', text: 'I' },
      { kind: 'added', text: 'want to help patients' },
      { kind: 'removed', text: 'like teeth' },
      { kind: 'same', text: 'and I want a' },
      { kind: 'added', text: 'career' },
      { kind: 'removed', text: 'job' },
    ])
  })

  it('ignores case and punctuation when comparing, and shows the new words', () => {
    expect(wordDiff('so the patient decides', 'So, the Patient decides.')).toEqual([{ kind: 'same', text: 'So, the Patient decides.' }])
  })

  it('handles an empty side', () => {
    expect(wordDiff('', 'hello there')).toEqual([{ kind: 'added', text: 'hello there' }])
    expect(wordDiff('hello there', ' ')).toEqual([{ kind: 'removed', text: 'hello there' }])
    expect(wordDiff('', '')).toEqual([])
  })

  it('keeps every word of both transcripts exactly once', () => {
    const before = 'one two three four five six seven'
    const after = 'zero two four four six eight'
    const parts = wordDiff(before, after)
    const words = (kind: string) => parts.filter((p) => p.kind !== kind).flatMap((p) => p.text.split(' '))
    expect(words('added').join(' ')).toBe(before)
    expect(words('removed').join(' ')).toBe(after)
  })
})
