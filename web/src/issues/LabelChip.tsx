/** A label as a chip: the label's colour, black or white text by contrast (triage-model labelTextColor). */
import { Badge, Group } from '@mantine/core';
import type { Label } from '#contracts/triage';
import { labelTextColor } from './detail-model';

export function LabelChip({
  label,
  size = 'md',
}: {
  label: Pick<Label, 'name' | 'color'>;
  size?: 'sm' | 'md';
}) {
  return (
    <Badge
      size={size}
      radius="sm"
      tt="none"
      styles={{
        root: { backgroundColor: label.color, color: labelTextColor(label.color), maxWidth: '100%' },
      }}
    >
      {label.name}
    </Badge>
  );
}

export function LabelChips({ labels }: { labels: Pick<Label, 'id' | 'name' | 'color'>[] }) {
  return (
    <Group gap={6}>
      {labels.map((l) => (
        <LabelChip key={l.id} label={l} />
      ))}
    </Group>
  );
}
