'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { runMutation } from '@/components/console/feedback';
import { placeCodeOnField, placeServerIssues } from '@/components/console/form-issues';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useCreateApiKey } from '@/lib/api-keys/queries';
import { useCreateBot } from '@/lib/bots/queries';
import { createBotBody } from '@/lib/bots/schema';
import type { Bot } from '@/lib/bots/schema';
import { useOrganizations } from '@/lib/orgs/queries';

/** A sender made here: its key stays in the page's state only, as the API keys page's one-time reveal keeps it. */
export type MadeSender = { botName: string; prefix: string; secret: string; createdAt: string };

const nameForm = createBotBody.pick({ name: true });
type NameValues = { name: string };

/** `prometheus-prod` for the project Prod: a bot name that says what uses it and where. */
const defaultName = (projectName: string) =>
  `prometheus-${
    projectName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'sender'
  }`;

/**
 * One step for a sender: a bot with AlertSender in the project, then its key narrowed to posting alerts there, both
 * through /v1 (each a sudo change: the console asks who you are once). Should the key fail after the bot was made,
 * pressing again makes only the key.
 */
export function MakeSenderForm({
  orgId,
  projectId,
  projectName,
  onMade,
}: {
  orgId: string;
  projectId: string;
  projectName: string;
  onMade: (made: MadeSender) => void;
}) {
  const createBot = useCreateBot(orgId);
  const createApiKey = useCreateApiKey(orgId);
  const organization = useOrganizations().items.find((o) => o.id === orgId);
  const [bot, setBot] = useState<Bot | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NameValues>({ resolver: zodResolver(nameForm), defaultValues: { name: defaultName(projectName) } });

  const makeKey = async (owner: Bot) => {
    const outcome = await runMutation(
      () =>
        createApiKey({
          name: `${owner.name} (Prometheus)`,
          botId: owner.id,
          // A key policy's longest lifetime, else none: an alert sender that stops by itself pages nobody.
          expiresInDays: organization?.keyPolicy?.maxLifetimeDays ?? null,
          permissions: ['obs.alerts.create'],
          projectIds: [projectId],
        }),
      {
        success: `Made the bot ${owner.name} and its key. Copy the key now.`,
        failure: `Made the bot ${owner.name}, but not its key: press again to make the key`,
      },
    );
    if (!outcome.ok) return;
    const { apiKey, secret } = outcome.data;
    onMade({ botName: owner.name, prefix: apiKey.prefix, secret, createdAt: apiKey.createdAt });
  };

  const submit = handleSubmit(async ({ name }) => {
    if (bot) return makeKey(bot);
    const made = await runMutation(
      () => createBot.mutateAsync({ name, policies: [{ policy: 'AlertSender', projectId }] }),
      {
        success: `Made the bot ${name}.`,
        failure: 'Could not make the bot',
        placeIssues: (error) =>
          !placeCodeOnField(setError, error, { bot_name_taken: 'name' }) &&
          placeServerIssues(setError, error, ['name']),
      },
    );
    if (!made.ok) return;
    setBot(made.data);
    await makeKey(made.data);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-2">
      <TextField
        id="sender-bot-name"
        label="Bot name"
        hint={`A bot with AlertSender in ${projectName || 'this project'}: it may post alerts here and nothing else.`}
        error={errors.name?.message}
        autoComplete="off"
        readOnly={bot !== null}
        {...register('name')}
      />
      <Button type="submit" pending={isSubmitting}>
        {bot ? `Make the key of ${bot.name}` : 'Make the sender bot and key'}
      </Button>
    </form>
  );
}
