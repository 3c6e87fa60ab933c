import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { failures } from '@/api/failures'
import { addFailureMessage, EMPTY_QUESTION, FAILED_TO_ADD, isComplete, pointValues, toQuestionInput } from './question-form'

const filled = { ...EMPTY_QUESTION, text: 'Why dentistry?', mainTags: ['dental'] }

describe('isComplete', () => {
  it('needs text and at least one profession', () => {
    expect(isComplete(filled)).toBe(true)
    expect(isComplete(EMPTY_QUESTION)).toBe(false)
    expect(isComplete({ ...filled, text: '   ' })).toBe(false)
    expect(isComplete({ ...filled, mainTags: [] })).toBe(false)
  })

  it('does not need a subtag or a tip', () => {
    expect(isComplete({ ...filled, subtag: '', tip: '' })).toBe(true)
  })
})

describe('toQuestionInput', () => {
  it('trims text and tip', () => {
    expect(toQuestionInput({ ...filled, text: '  Why?  ', tip: ' Be honest. ' })).toMatchObject({ text: 'Why?', tip: 'Be honest.' })
  })

  it('sends an order only for Big 3 questions', () => {
    expect(toQuestionInput({ ...filled, big3: true, big3Order: 2 })).toMatchObject({ big3: true, big3Order: 2 })
    expect(toQuestionInput({ ...filled, big3: false, big3Order: 2 })).toMatchObject({ big3: false, big3Order: 0 })
  })
})

describe('addFailureMessage', () => {
  it('says "Please complete all fields." when the problem type says the question is incomplete', () => {
    const { type } = failures.incompleteNewQuestion
    expect(addFailureMessage(new ApiError(400, { type, detail: 'anything' }))).toBe('Please complete all fields.')
  })

  it('decides by the problem type, not by the words', () => {
    expect(addFailureMessage(new ApiError(400, { detail: 'Please complete all fields.' }))).toBe(FAILED_TO_ADD)
  })

  it('says "Failed to add question." for anything else', () => {
    expect(addFailureMessage(new ApiError(409, { detail: 'text: duplicates another question.' }))).toBe(FAILED_TO_ADD)
    expect(addFailureMessage(new ApiError(0, {}))).toBe(FAILED_TO_ADD)
    expect(addFailureMessage(new Error('boom'))).toBe(FAILED_TO_ADD)
  })
})

describe('points and traps', () => {
  it('sends each point trimmed with its cues split at semicolons, and drops empty rows', () => {
    const input = toQuestionInput({
      ...filled,
      points: [
        { text: '  Say why she refuses. ', cues: 'ask her why;  her reasons ;;' },
        { text: '', cues: '' },
      ],
      traps: [{ text: 'Transfusing her anyway', cues: '' }],
    })
    expect(input.points).toEqual([{ text: 'Say why she refuses.', cues: ['ask her why', 'her reasons'] }])
    expect(input.traps).toEqual([{ text: 'Transfusing her anyway', cues: [] }])
  })

  it('shows stored cues on one line, as the admin types them', () => {
    expect(pointValues([{ text: 'Say why.', cues: ['ask her why', 'her reasons'] }])).toEqual([{ text: 'Say why.', cues: 'ask her why; her reasons' }])
    expect(pointValues(undefined)).toEqual([])
  })
})
