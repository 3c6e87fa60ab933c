import type { ReactNode } from 'react'
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
}: {
  trigger: ReactNode
  current: string
  options: { slug: string; name: string }[]
  onChoose: (slug: string) => void
}) {
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start">
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
