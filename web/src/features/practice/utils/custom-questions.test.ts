import { describe, expect, it } from 'vitest'
import { limits } from '@/api/limits'
import { addCustomQuestion, MAX_CUSTOM_QUESTIONS, searchQuestions } from './custom-questions'

describe('custom question builder', () => {
  it('adds trimmed questions with inner spaces collapsed', () => {
    expect(addCustomQuestion([], '  Why   dentistry?  ')).toEqual(['Why dentistry?'])
  })

  it('ignores text that is empty after trimming', () => {
    const list = ['A?']
    expect(addCustomQuestion(list, '   \n\t ')).toBe(list)
  })

  it('never adds the same text twice, whatever its case or spacing', () => {
    const list = ['Why dentistry?']
    expect(addCustomQuestion(list, 'why  DENTISTRY?')).toBe(list)
  })

  it('allows as many questions as a session may have, no more', () => {
    expect(MAX_CUSTOM_QUESTIONS).toBe(limits.createPracticeSession.body.questionCount.maximum)
    expect(MAX_CUSTOM_QUESTIONS).toBeLessThan(limits.createPracticeSession.body.questions.maxItems)
  })

  it('stops at the session maximum', () => {
    const full = Array.from({ length: MAX_CUSTOM_QUESTIONS }, (_, i) => `Q${i}?`)
    expect(addCustomQuestion(full, 'One more?')).toBe(full)
  })

  it('searches the bank by every word, ignoring case', () => {
    const bank = [{ text: 'Tell me about a team you led.' }, { text: 'Why this school?' }, { text: 'Describe a TEAM conflict.' }]
    expect(searchQuestions(bank, 'team').map((q) => q.text)).toEqual(['Tell me about a team you led.', 'Describe a TEAM conflict.'])
    expect(searchQuestions(bank, 'team  conflict')).toHaveLength(1)
    expect(searchQuestions(bank, '  ')).toHaveLength(3)
  })
})
