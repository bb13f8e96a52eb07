// The paged list every scoped GET answers with, over one Prisma model: `where` is the list's
// filter (with its owner scope), `scope` alone finds the cursor item (an id outside it is 400),
// `shape` the include/select/omit both reads share. The total's cache key is the model and filter.
import { pageRows, type PageRequest } from "@/lib/platform/paging/pagination";

/**
 * The three reads a list makes of a model. Prisma's delegates are generic per model, so their
 * arguments are taken as they come; the rows' type is the caller's `T`.
 */
type ListedModel = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  findMany(args: any): Promise<unknown[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  count(args: any): Promise<number>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  findFirst(args: any): Promise<unknown>;
};

export async function pageModel<T extends { id: string } & Record<string, unknown>>(
  req: PageRequest,
  list: { model: ListedModel; name: string; where: object; scope: object; shape?: object; field?: string },
) {
  const { model, where, scope, shape } = list;
  return pageRows<T>(req, {
    field: list.field,
    find: ({ extra, orderBy, skip, take }) => model.findMany({ where: { ...where, ...extra }, orderBy, skip, take, ...shape }) as Promise<T[]>,
    count: () => model.count({ where }),
    countKey: [list.name, where],
    cursor: (id) => model.findFirst({ where: { ...scope, id }, ...shape }) as Promise<T | null>,
  });
}
