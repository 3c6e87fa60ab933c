/** One run of words in a word-level diff: kept in both, or only in one. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added'
  text: string
}

/** Words compare without case or surrounding punctuation ("Patient," = "patient"). */
const comparable = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')

/**
 * The words of `before` that `after` dropped and the ones it added, in
 * order, by the longest common subsequence of words. Runs of one kind are
 * joined. Transcripts are a few hundred words, so the table is small.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/\s+/).filter(Boolean)
  const b = after.split(/\s+/).filter(Boolean)
  const ka = a.map(comparable)
  const kb = b.map(comparable)
  // common[i][j]: the longest common subsequence of a[i:] and b[j:].
  const common = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = ka[i] === kb[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!)
    }
  }
  const parts: DiffPart[] = []
  const push = (kind: DiffPart['kind'], word: string) => {
    const last = parts[parts.length - 1]
    if (last?.kind === kind) last.text += ` ${word}`
    else parts.push({ kind, text: word })
  }
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && ka[i] === kb[j]) {
      push('same', b[j]!)
      i++
      j++
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      push('added', b[j++]!)
    } else {
      push('removed', a[i++]!)
    }
  }
  return parts
}
