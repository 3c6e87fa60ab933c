import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { hasRecogniser, installOnDevice, onDeviceAvailability, speechVendor } from '@/lib/speech-recognition'
import { usePracticePreferences, type Hearing, type PracticePreferences } from '../api/get-practice-preferences'
import { useSpeechInfo } from '../api/get-formats'
import { useSetPracticePreferences } from '../api/set-practice-preferences'

/** Item 5 of issue 39: said before the student records when the offline engine is all there is. */
export const LOCAL_ENGINE_NOTE =
  'Whitecoat’s server is using its offline recognizer, which mishears many words, most of all in natural speech with “um”s and restarts ' +
  '(on recordings of real people, about half the words came out wrong). Your pace and pauses are still measured; ' +
  'read your transcript afterwards and correct it before trusting the content score.'

type DeviceState = 'checking' | 'available' | 'downloadable' | 'downloading' | 'unavailable'

/** The note under the setup's start button and the first question, when it applies. */
export function LocalEngineNote({ hearing }: { hearing: Hearing }) {
  const speech = useSpeechInfo().data
  if (speech?.engine !== 'local' || (hearing !== 'server' && hasRecogniser())) return null
  return (
    <p data-testid="local-engine-note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {LOCAL_ENGINE_NOTE}
    </p>
  )
}

/** Said beside the choice to measure video delivery (issue 42), and on the privacy page. */
export const WATCH_VIDEO_HINT =
  'While you answer on camera, your browser measures eye contact, framing and steadiness on this device. ' +
  'Only the numbers are sent to Whitecoat, never a picture; your video stays on your device.'

/**
 * "How you are heard" (issue 39): the browser's recogniser on the device,
 * where it says it can; the browser's speech service, naming who hears the
 * audio; or Whitecoat's server, the default and all a browser without a
 * recogniser is offered. With `video`, also whether the browser measures a
 * video answer's delivery (issue 42). Each choice is saved on the account
 * at once.
 */
export function HearingChoice({ idPrefix = 'hearing', video = false }: { idPrefix?: string; video?: boolean }) {
  const prefs = usePracticePreferences()
  const save = useSetPracticePreferences()
  const supported = hasRecogniser()
  const [device, setDevice] = useState<DeviceState>(supported ? 'checking' : 'unavailable')
  useEffect(() => {
    if (!supported) return
    let live = true
    void onDeviceAvailability().then((a) => live && setDevice(a))
    return () => {
      live = false
    }
  }, [supported])
  const vendor = speechVendor()

  const offered: { value: Hearing; label: string; hint: string }[] = []
  if (supported && device !== 'unavailable' && device !== 'checking') {
    offered.push({
      value: 'device',
      label: 'On this device',
      hint:
        device === 'available'
          ? `${vendor.browser} recognizes your speech on this device; the recording still goes to Whitecoat, which lines the words up with it.`
          : `${vendor.browser} can recognize your speech on this device once it downloads its English model.`,
    })
  }
  if (supported) {
    offered.push({
      value: 'browser',
      label: 'My browser’s speech service',
      hint: `${vendor.browser} sends your audio to ${vendor.company} to recognize it, under ${vendor.company}’s terms. It often hears better than Whitecoat’s server.`,
    })
  }
  offered.push({
    value: 'server',
    label: 'Whitecoat’s server',
    hint: 'Your recording goes only to Whitecoat and is deleted once it is transcribed.',
  })

  // The radio follows the click at once: the saved preferences change only
  // after the mutation's first await, and a controlled radio would spring
  // back for that moment (a click that looks missed).
  const [picked, setPicked] = useState<PracticePreferences | null>(null)
  const current = picked ?? prefs.data
  const chosen: Hearing = current && offered.some((o) => o.value === current.hearing) ? current.hearing : 'server'
  const captions = current?.captions ?? true
  const watchVideo = current?.watchVideo ?? true
  const update = (change: Partial<PracticePreferences>) => {
    const next = { hearing: chosen, captions, watchVideo, ...change }
    setPicked(next)
    save.mutate(next, { onSettled: () => setPicked(null) })
  }
  const choose = (hearing: Hearing) => update({ hearing })

  async function download() {
    setDevice('downloading')
    const ok = await installOnDevice()
    setDevice(ok ? 'available' : await onDeviceAvailability())
  }

  return (
    <div className="grid gap-3">
      <fieldset className="grid gap-2" disabled={!current}>
        <legend className="mb-2 text-sm font-semibold">How you are heard</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {offered.map((o) => (
            <label
              key={o.value}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent"
            >
              <input type="radio" name={`${idPrefix}-hearing`} value={o.value} checked={chosen === o.value} onChange={() => choose(o.value)} className="mt-1" />
              <span>
                <span className="block font-medium">{o.label}</span>
                <span className="block text-sm text-muted-foreground">{o.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {supported ? null : (
        <p className="text-sm text-muted-foreground">This browser has no speech recognition of its own, so Whitecoat’s server hears your answers.</p>
      )}
      {chosen === 'device' && (device === 'downloadable' || device === 'downloading') ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" onClick={() => void download()} disabled={device === 'downloading'}>
            Download English for on-device recognition
          </Button>
          <span role="status" className="text-sm text-muted-foreground">
            {device === 'downloading' ? 'Downloading…' : 'Until it is downloaded, Whitecoat’s server hears you.'}
          </span>
        </div>
      ) : null}
      {supported && chosen !== 'server' ? (
        <label className="flex items-start gap-3">
          <input type="checkbox" checked={captions} onChange={(e) => update({ captions: e.target.checked })} className="mt-1" />
          <span>
            <span className="block font-medium">Show live captions while I speak</span>
            <span className="block text-sm text-muted-foreground">What your browser hears appears under the recording.</span>
          </span>
        </label>
      ) : null}
      {video ? (
        <label className="flex items-start gap-3">
          <input type="checkbox" checked={watchVideo} disabled={!current} onChange={(e) => update({ watchVideo: e.target.checked })} className="mt-1" />
          <span>
            <span className="block font-medium">Measure my eye contact and framing</span>
            <span className="block text-sm text-muted-foreground">{WATCH_VIDEO_HINT}</span>
          </span>
        </label>
      ) : null}
      <LocalEngineNote hearing={chosen} />
      <FormStatus status={save.isPending ? 'Saving…' : null} error={save.isError ? errorMessage(save.error) : prefs.isError ? errorMessage(prefs.error) : null} />
    </div>
  )
}
