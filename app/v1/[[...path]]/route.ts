import { unknownPath } from '@/lib/pipeline/methods';

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath();
