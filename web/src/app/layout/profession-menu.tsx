import { useEffect, useRef, type ReactNode } from 'react'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'

/**
 * The switcher's menu, in a chunk of its own (with Radix's menu and
 * floating-ui): it opens as soon as it has loaded, because it loads when the
 * student first opens the switcher.
 */
export default function ProfessionMenu({
  trigger,
  current,
  options,
  onChoose,
  openedByKeyboard,
}: {
  openedByKeyboard: boolean
  trigger: ReactNode
  current: string
  options: { slug: string; name: string }[]
  onChoose: (slug: string) => void
}) {
  const content = useRef<HTMLDivElement>(null)
  // Radix puts focus on the first item only when its own trigger saw the
  // key; this menu opened from the placeholder button's key. After Radix's
  // own focus on open, hence the next frame.
  useEffect(() => {
    if (!openedByKeyboard) return
    const frame = requestAnimationFrame(() => content.current?.querySelector<HTMLElement>('[role="menuitemradio"]')?.focus())
    return () => cancelAnimationFrame(frame)
  }, [openedByKeyboard])
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" ref={content}>
        <DropdownMenuLabel>Profession</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current} onValueChange={onChoose}>
          {options.map(({ slug, name }) => (
            <DropdownMenuRadioItem key={slug} value={slug}>
              {name}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
